// Package faults holds slow fault-injection tests (build tag faults, `make test-faults`):
// the database going away in the middle of ingest, and a three-node cluster losing a
// node. Each test starts its own Cassandra nodes in temporary directories; none uses
// CQL_HOSTS or the shared test node.
package faults
