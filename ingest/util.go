package ingest

import (
	"encoding/hex"

	"github.com/gocql/gocql"
)

var unset = gocql.UnsetValue

func hexBytes(b []byte) string { return "0x" + hex.EncodeToString(b) }
