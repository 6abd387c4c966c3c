import ParleyNet

print("parley: starting")
