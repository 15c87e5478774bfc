package tip28

import (
	"bytes"
	"strings"

	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"
)

// hook is the broker's rules for clients: read-only (no client publishes, and no Will,
// which the broker would publish for it unchecked), the read token when one is
// configured, only the TIP-28 topics it publishes and at most MaxSubscriptions of them a
// connection; a new subscription gets the topic's current value, as from inx-mqtt.
type hook struct {
	mqtt.HookBase
	b *Broker
}

func (h *hook) ID() string { return "tip28" }

func (h *hook) Provides(b byte) bool {
	return bytes.Contains([]byte{mqtt.OnConnectAuthenticate, mqtt.OnACLCheck, mqtt.OnSubscribe, mqtt.OnSubscribed,
		mqtt.OnPacketEncode}, []byte{b})
}

// OnConnectAuthenticate admits a CONNECT without a Will, whose upgrade carried the read
// token or which gives it as its password.
func (h *hook) OnConnectAuthenticate(cl *mqtt.Client, pk packets.Packet) bool {
	if pk.Connect.WillFlag {
		return false
	}
	c, ok := cl.Net.Conn.(*conn)
	if !ok {
		return false
	}
	return c.authorized || pk.Connect.PasswordFlag && h.b.cfg.PasswordOK(pk.Connect.Password)
}

// OnACLCheck: clients read, never write.
func (h *hook) OnACLCheck(_ *mqtt.Client, _ string, write bool) bool { return !write }

// OnSubscribe refuses the filters the broker publishes nothing on, and those past the
// connection's cap, by blanking them: the SUBACK then refuses each (0x80, or 0x8F in
// MQTT 5) and grants the others.
func (h *hook) OnSubscribe(cl *mqtt.Client, pk packets.Packet) packets.Packet {
	hrp := h.b.network.hrp(h.b.reads)
	room := h.b.cfg.MaxSubscriptions - cl.State.Subscriptions.Len()
	for i := range pk.Filters {
		f := pk.Filters[i].Filter
		_, had := cl.State.Subscriptions.Get(f)
		if _, ok := parseTopic(f, hrp); !ok || !had && room <= 0 {
			pk.Filters[i].Filter = ""
			continue
		}
		if !had {
			room--
		}
	}
	return pk
}

// OnSubscribed pushes each granted topic's current value, after the SUBACK (the push
// runs on its own).
func (h *hook) OnSubscribed(_ *mqtt.Client, pk packets.Packet, codes []byte) {
	hrp := h.b.network.hrp(h.b.reads)
	for i, sub := range pk.Filters {
		if i >= len(codes) || codes[i] >= packets.ErrUnspecifiedError.Code {
			continue
		}
		if t, ok := parseTopic(sub.Filter, hrp); ok {
			h.b.push(t)
		}
	}
}

// OnPacketEncode writes the stand-in condition level of a publication back as "+" on
// the wire (see anyConditionLevel).
func (h *hook) OnPacketEncode(_ *mqtt.Client, pk packets.Packet) packets.Packet {
	if pk.FixedHeader.Type == packets.Publish {
		if rest, ok := strings.CutPrefix(pk.TopicName, anyUnlockPrefix); ok {
			pk.TopicName = unlockPrefix + anyCondition + "/" + rest
		}
	}
	return pk
}
