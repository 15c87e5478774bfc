// Package testsupport holds, in its subpackages, the fixtures that tests of several
// packages share: real Shimmer data ingested through the pipeline (realnettest), made-up
// snapshot files (snapshottest), archives (archivetest), a simulated chain ingested into a
// keyspace (ingesttest), built binaries (bintest). Production code imports none of them,
// and tests may reach up the floors through them: floors_test.go checks both, with the
// rest of the import rules of docs/architecture.md.
package testsupport
