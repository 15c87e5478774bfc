// Package testcontainers gives tests and local runs a real CQL endpoint.
//
// When CQL_HOSTS is set (comma-separated host:port) that cluster is used as is.
// Otherwise a single-node Apache Cassandra 5.0 is started from Maven Central jars on
// the local JDK (no Docker): the jars are fetched once with Maven into the user cache,
// a cassandra.yaml is written for 127.0.0.1 and free ports, and the JVM runs in the
// background with its log in the node directory. The node outlives the process that
// started it, so one node serves a whole `make test` run; Stop ends it.
//
// Fault tests start their own nodes instead: StartNode (one node, tied to the calling
// process, with Stop, Kill and Restart on the same directory and ports) and
// StartCluster (nodes on 127.0.0.1, 127.0.0.2, ... sharing the same ports).
// StartSecureNode starts one that requires password authentication, role permissions
// and TLS on its CQL port, with keystores made by keytool (MakeKeystores).
package testcontainers
