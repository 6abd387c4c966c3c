"""`parley chat`'s devices pane (v): the account's signed-in devices by name and address,
and signing all the others out (o)."""
from api import call, sign_up
from tmux import chat, needs_tmux, play

pytestmark = needs_tmux


def test_devices_pane_lists_and_signs_out_the_others(parley):
    server = parley("--password-cost", "minimum")
    alice = sign_up(server.url, "alice")
    laptop = call(server.url, "POST", "/v1/auth/login", {"username": "alice", "password": "password123", "deviceName": "Work laptop"})
    assert laptop.status == 200
    tmux = chat(server.url, width=170)

    async def scenario():
        await tmux.sign_in("alice")
        await tmux.wait_for("● online", "v devices")
        tmux.keys("v")
        screen = await tmux.wait_for("Devices", "Work laptop", "parley-chat  (this device)", "127.0.0.1")
        assert "o sign out all other devices" in screen
        tmux.keys("o")
        await tmux.wait_for("Sign out all other devices? (y/n)")
        tmux.text("y")
        tmux.keys("Enter")
        await tmux.wait_for("signed out", absent=("Work laptop",))
        tmux.keys("Escape")
        await tmux.wait_for("v devices")

    play(tmux, scenario(), timeout=90)
    assert call(server.url, "GET", "/v1/me", token=laptop.json["token"]).error_code == "unauthorized"
    assert call(server.url, "GET", "/v1/me", token=alice["token"]).error_code == "unauthorized"
