"""The online-status operations' codes and names, and its structures."""

WORKLOAD = "online-status"  # its name, under which each store declares its executor (ServerProtocol.executors)

STORE, BATCH_STORE, COUNT, GET_AND_CLEAR, INSERT = range(5)
NAMES = ("STORE", "BATCH-STORE", "COUNT", "GET-AND-CLEAR", "INSERT")  # measurement names, by op code
STRUCTURES = ("hash", "set", "zset")
