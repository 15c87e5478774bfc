package store

import "github.com/stardust-indexer/stardust-indexer/cql"

// Denied reports whether the database refused this client for its configuration: a
// wrong login, a permission its role lacks, a TLS failure (cql.ClassAuth). No retry can
// succeed until the configuration changes (docs/security.md).
func Denied(err error) bool { return cql.Classify(err) == cql.ClassAuth }
