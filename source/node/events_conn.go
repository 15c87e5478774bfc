package node

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"sync"

	mqtt "github.com/eclipse/paho.mqtt.golang"
)

// maxEventPacket caps the MQTT packets a broker may send: a block is at most 32 KiB, and
// the MQTT client allocates whatever length a packet announces before reading it.
const maxEventPacket = 64 << 10

// ErrEventPacketTooLarge closes a broker connection whose next packet announces more
// than maxEventPacket bytes, before the client sees (and allocates) it.
var ErrEventPacketTooLarge = errors.New("node events: the broker announced a packet over the size limit")

// openCapped opens the broker connection as the MQTT client would (TCP, TLS or
// WebSocket) and wraps it in a packetCap.
func openCapped(onRefused func()) mqtt.OpenConnectionFunc {
	return func(u *url.URL, o mqtt.ClientOptions) (net.Conn, error) {
		conn, err := openBroker(u, o)
		if err != nil {
			return nil, err
		}
		return &packetCap{Conn: conn, max: maxEventPacket, onRefused: onRefused}, nil
	}
}

// openBroker dials the schemes eventURLs accepts.
func openBroker(u *url.URL, o mqtt.ClientOptions) (net.Conn, error) {
	dialer := &net.Dialer{Timeout: o.ConnectTimeout}
	switch u.Scheme {
	case "ws", "wss":
		plain := *u
		plain.User = nil
		var tlsc *tls.Config
		if u.Scheme == "wss" {
			tlsc = o.TLSConfig
		}
		return mqtt.NewWebsocket(plain.String(), tlsc, o.ConnectTimeout, o.HTTPHeaders, o.WebsocketOptions)
	case "mqtt":
		return dialer.Dial("tcp", u.Host)
	case "mqtts":
		return tls.DialWithDialer(dialer, "tcp", u.Host, o.TLSConfig)
	}
	return nil, fmt.Errorf("%w: %q", ErrEventsURL, u.String())
}

// packetCap follows the MQTT fixed headers of what the broker sends (a type byte, then
// the remaining length in 1-4 bytes of 7 bits) and fails the read, closing the
// connection, that would hand the client a length above max.
type packetCap struct {
	net.Conn
	max       int
	onRefused func()

	mu       sync.Mutex
	inBody   int // bytes of the current packet's body still to come
	inLength bool
	length   int
	shift    uint
	failed   error
}

func (c *packetCap) Read(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.failed != nil {
		return 0, c.failed
	}
	n, err := c.Conn.Read(p)
	if ferr := c.follow(p[:n]); ferr != nil {
		c.failed = ferr
		_ = c.Conn.Close()
		if c.onRefused != nil {
			c.onRefused()
		}
		return 0, ferr
	}
	return n, err
}

// follow advances the header parser over b.
func (c *packetCap) follow(b []byte) error {
	for len(b) > 0 {
		switch {
		case c.inBody > 0:
			k := min(c.inBody, len(b))
			c.inBody -= k
			b = b[k:]
		case !c.inLength: // the type byte
			c.inLength, c.length, c.shift = true, 0, 0
			b = b[1:]
		default: // a byte of the remaining length
			d := b[0]
			b = b[1:]
			c.length |= int(d&0x7f) << c.shift
			c.shift += 7
			if c.length > c.max || (d&0x80 != 0 && c.shift >= 28) {
				return fmt.Errorf("%w: %d bytes or more (limit %d)", ErrEventPacketTooLarge, c.length, c.max)
			}
			if d&0x80 == 0 {
				c.inBody, c.inLength = c.length, false
			}
		}
	}
	return nil
}
