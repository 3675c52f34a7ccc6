"""The MongoDB protocol (Percona Server for MongoDB, MongoDB, FerretDB): store, OP_MSG binding and chain,
pymongo binding, serverStatus sampler."""
