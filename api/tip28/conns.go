package tip28

import (
	"net/http"
	"sync"

	"github.com/gorilla/websocket"

	"github.com/stardust-indexer/stardust-indexer/internal/wsconn"
)

// upgrader answers the upgrade with the subprotocol "mqtt", which iota-sdk requires in
// the answer (MQTT 3.1.1 §6); pages of any origin may connect, as to Hornet, since the
// broker only publishes what the read routes answer.
var upgrader = websocket.Upgrader{Subprotocols: []string{"mqtt"}, CheckOrigin: func(*http.Request) bool { return true }}

// conn is a client's connection: its slot under the caps goes back when it closes.
type conn struct {
	*wsconn.Conn
	once       sync.Once
	release    func()
	authorized bool // the upgrade carried the read token, or none is configured
}

// Close closes the connection and gives its slot back; the broker calls it once the
// client leaves, and it is safe to call again.
func (c *conn) Close() error {
	c.once.Do(c.release)
	return c.Conn.Close()
}
