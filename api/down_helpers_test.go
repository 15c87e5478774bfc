package api

import (
	"net/http/httptest"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// downServer serves the API configured as c over a session to db that is already
// closed: the database gone. The caller closes the server.
func downServer(t *testing.T, db cql.Config, c Config) *httptest.Server {
	t.Helper()
	sess, err := cql.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	sess.Close()
	return httptest.NewServer(New(store.New(sess, testChunk), c).Handler())
}
