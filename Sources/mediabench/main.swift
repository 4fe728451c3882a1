print("mediabench: no benchmarks yet")
