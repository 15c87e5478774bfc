module github.com/stardust-indexer/stardust-indexer

go 1.26.8

require github.com/gocql/gocql v1.7.0

require (
	github.com/golang-migrate/migrate/v4 v4.20.1 // indirect
	github.com/golang/snappy v0.0.4 // indirect
	github.com/hailocab/go-hostpool v0.0.0-20160125115350-e80d13ce29ed // indirect
	golang.org/x/crypto v0.58.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	gopkg.in/inf.v0 v0.9.1 // indirect
)
