print("latchkey-bench: not implemented yet")
