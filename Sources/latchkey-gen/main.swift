print("latchkey-gen")
