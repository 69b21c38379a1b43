print("placeholder: see Tests/LatchkeyRuntimeTests/Reliability")
