"""Reports flowing to the admin pages in the browser: a user reports a message from its menu;
an administrator (granted with `parley admin grant`) sees it in the reports queue with the
message as it was (recalled since), its context, suspends the author (whose requests are
then refused with `suspended`), resolves it, finds the user and lifts the suspension, and
reads the statistics and the audit log. Screenshots in English and Chinese."""
import subprocess
import time

from selenium.webdriver.common.action_chains import ActionChains

from api import call
from conftest import binary
from web import DESKTOP, WEB_ROOT, register, ws


def fill_reason(browser, reason: str, days: str | None = None):
    """Fills the reason dialog of the admin pages and confirms it."""
    inputs = browser.wait_until(lambda: [i for i in browser.driver.find_elements("css selector", ".modal--small input")] or None,
                                10, "the reason dialog")
    inputs[0].send_keys(reason)
    if days is not None:
        inputs[1].clear()
        inputs[1].send_keys(days)
    browser.click(".modal--small [data-action=confirm-reason]")


def test_reports_reach_the_admin_pages_and_are_handled_there(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    alice = register(server.url, "alice")
    bob = register(server.url, "bob")
    carol = register(server.url, "carol")
    granted = subprocess.run([binary("parley", "PARLEY_BIN"), "admin", "--data", server.data_dir, "grant", "alice"],
                             capture_output=True, text=True, timeout=60)
    assert granted.returncode == 0, granted.stderr
    request = ws(server.port, bob["token"], ("friend.request", {"userId": carol["user"]["id"]}))[0]
    chat = ws(server.port, carol["token"], ("friend.accept", {"requestId": request["request"]["id"]}))[0]["conversationId"]
    sent = ws(server.port, bob["token"], ("message.send", {"conversationId": chat, "clientId": "s1", "kind": "text",
                                                           "text": "buy cheap pills now"}))[0]

    # Carol reports the message from its menu; she sees no admin pages.
    reporter = browsers(server.url, size=DESKTOP)
    reporter.sign_in_with_token(carol)
    reporter.open_chat_titled("bob")
    reporter.wait_bubble("buy cheap pills now")
    row = reporter.wait_until(lambda: next((r for r in reporter.driver.find_elements("css selector", ".view--dialogue .msg")
                                            if "buy cheap pills now" in r.text), None), 10, "the message")
    ActionChains(reporter.driver).context_click(row.find_element("css selector", ".bubble")).perform()
    reporter.click(".msg-menu-item[data-action=report]")
    reporter.click(".report-reason input[value=spam]")
    reporter.type(".report-note", "selling pills")
    reporter.screenshot("web-admin-report-dialog")
    reporter.click("[data-action=send-report]")
    reporter.wait(".toast", text="administrators")
    reporter.route("#/me")
    reporter.wait(".view--profile .hero")
    time.sleep(0.5)
    assert reporter.count("[data-action=open-admin]") == 0

    # Bob recalls it; the report keeps what it said.
    ws(server.port, bob["token"], ("message.recall", {"conversationId": chat, "messageId": sent["id"], "clientId": "r1"}))

    admin = browsers(server.url, size=DESKTOP)
    admin.sign_in_with_token(alice, route="#/me")
    admin.click("[data-action=open-admin]")
    card = admin.wait(".admin-card[data-report]")
    assert "buy cheap pills now" in card.find_element("css selector", ".admin-snapshot").text
    assert "selling pills" in card.text
    admin.wait(".admin-card[data-report]", text="bob")
    admin.click(".admin-card[data-report] [data-action=context]")
    admin.wait(".admin-context-list .is-reported")
    admin.screenshot("web-admin-reports")

    # Suspend the author from the report: his requests are refused at once.
    admin.click(".admin-card[data-report] [data-action=suspend]")
    fill_reason(admin, "selling pills", days="3")
    admin.wait(".toast", text="Suspended")
    refused = call(server.url, "GET", "/v1/me", token=bob["token"])
    assert refused.status == 403 and refused.error_code == "suspended"
    assert refused.json["error"]["reason"] == "selling pills"

    # Resolve it: it leaves the open queue and shows among the resolved.
    admin.driver.find_element("css selector", ".admin-card[data-report] .admin-outcome").send_keys("User suspended")
    admin.click(".admin-card[data-report] [data-action=resolve]")
    admin.wait(".admin-pane .note", text="No reports")
    admin.click(".admin-filter .segment", text="Resolved")
    resolved = admin.wait(".admin-card[data-report]")
    assert "User suspended" in resolved.text

    # User lookup: bob is suspended; lifting it lets him back in.
    admin.click(".admin-tabs [data-tab=users]")
    admin.type(".admin-search input", "bob")
    admin.click(".admin-search button[type=submit]")
    admin.wait(".admin-card[data-user] [data-state=suspended]", text="selling pills")
    admin.screenshot("web-admin-users")
    admin.click(".admin-card[data-user] [data-action=unsuspend]")
    admin.wait(".admin-card[data-user] [data-state=active]")
    assert call(server.url, "GET", "/v1/me", token=bob["token"]).status == 200

    # Statistics and the audit log (every action above, newest first).
    admin.click(".admin-tabs [data-tab=stats]")
    assert admin.wait("[data-stat=admin_stat_users]").text == "3"
    assert admin.wait("[data-stat=admin_stat_reports]").text == "0"
    admin.click(".admin-tabs [data-tab=audit]")
    admin.wait(".admin-audit tbody tr")
    actions = [row.get_attribute("data-action") for row in admin.driver.find_elements("css selector", ".admin-audit tbody tr")]
    assert actions == ["user.unsuspend", "report.resolve", "user.suspend", "admin.grant"]
    admin.screenshot("web-admin-audit")
    assert not admin.console_errors()

    # In Chinese.
    chinese = browsers(server.url, size=DESKTOP, language="zh-CN")
    chinese.sign_in_with_token(alice, route="#/me")
    chinese.click("[data-action=open-admin]", text="管理后台")
    chinese.wait(".admin-tabs [data-tab=reports]", text="举报")
    chinese.click(".admin-filter .segment", text="已处理")
    chinese.wait(".admin-card[data-report]", text="已封禁用户")
    chinese.screenshot("web-admin-reports-zh")


def test_the_owner_disbands_a_group_from_its_info_page(parley, browsers):
    server = parley("--password-cost", "minimum", web_root=WEB_ROOT)
    alice = register(server.url, "alice")
    bob = register(server.url, "bob")
    group = ws(server.port, alice["token"], ("group.create", {"name": "Hikers"}))[0]["id"]
    ws(server.port, bob["token"], ("group.join", {"name": "Hikers"}))
    browser = browsers(server.url, size=DESKTOP)
    browser.sign_in_with_token(alice, route=f"#/chats/c/{group}/info")
    browser.click("[data-action=disband]")
    browser.click(".modal--small .btn-danger", text="Disband group")
    browser.wait_until(lambda: "/info" not in browser.js("return location.hash") or None, 10, "the way back")
    browser.wait_until(lambda: all("Hikers" not in row.text for row in browser.driver.find_elements("css selector", ".rows a.row")) or None,
                       10, "the group gone from the list")
    refused = call(server.url, "GET", "/v1/me", token=bob["token"])
    assert refused.status == 200
    from client import Session
    import asyncio

    async def bob_view():
        session = await Session.open(server.port, bob["token"])
        reply = await session.call("group.get", {"conversationId": group})
        listed = await session.call("conversation.list", {})
        await session.close()
        return reply, listed
    reply, listed = asyncio.run(bob_view())
    assert reply["ok"] is False and reply["error"]["code"] == "not_member"
    assert all(c["id"] != group for c in listed["data"]["conversations"])
