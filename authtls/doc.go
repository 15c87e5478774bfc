// Package authtls holds the end-to-end tests of password authentication, role
// permissions and TLS: the indexer and the API binaries against a Cassandra node of
// their own that requires all three (testcontainers.StartSecureNode). See
// docs/security.md for the roles and the settings they exercise.
package authtls
