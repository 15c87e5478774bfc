package tip28

import (
	"strings"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// kind is a family of TIP-28 topics the broker publishes.
type kind uint8

const (
	kindLatest        kind = iota + 1 // milestone-info/latest
	kindConfirmed                     // milestone-info/confirmed
	kindMilestones                    // milestones
	kindOutput                        // outputs/{outputId}
	kindUnlock                        // outputs/unlock/{condition}/{address}[/spent]
	kindIncluded                      // transactions/{transactionId}/included-block
	kindBlockMetadata                 // block-metadata/{blockId}
)

// topic is a parsed TIP-28 topic: its family, the ID or address it names (in the form
// the broker publishes it: lowercase 0x-hex, bech32), and for an unlock topic the
// condition and whether it is the spent variant.
type topic struct {
	kind  kind
	id    string
	cond  string
	spent bool
}

const (
	topicLatest     = "milestone-info/latest"
	topicConfirmed  = "milestone-info/confirmed"
	topicMilestones = "milestones"
)

// anyCondition is the unlock topics' wildcard condition: the broker also publishes on
// the literal topic outputs/unlock/+/{address}, as inx-mqtt does, since the SDKs
// dispatch by exact topic name.
const anyCondition = "+"

// anyConditionLevel stands for "+" in the topic the broker publishes outputs/unlock/+/
// topics on, since an MQTT topic name holds no wildcard: the subscribers of
// outputs/unlock/+/{address} (and no one else: no client may subscribe to it) match
// it, and the hook writes "+" back as the packet is encoded.
const anyConditionLevel = "any-condition"

const (
	unlockPrefix    = "outputs/unlock/"
	anyUnlockPrefix = unlockPrefix + anyConditionLevel + "/"
)

// conditions are the unlock conditions an unlock topic may name.
var conditions = map[string]bool{anyCondition: true, "address": true, "storage-return": true, "expiration": true,
	"state-controller": true, "governor": true, "immutable-alias": true}

// parseTopic reads a topic (or a subscription's filter) as one the broker publishes:
// IDs in canonical form (lowercase 0x-hex) and addresses as bech32 of the network hrp
// ("" while no network is indexed: any). Anything else, wildcards but the unlock
// topics' "+" condition included, is not a topic the broker serves.
func parseTopic(s, hrp string) (topic, bool) {
	switch s {
	case topicLatest:
		return topic{kind: kindLatest}, true
	case topicConfirmed:
		return topic{kind: kindConfirmed}, true
	case topicMilestones:
		return topic{kind: kindMilestones}, true
	}
	parts := strings.Split(s, "/")
	switch {
	case len(parts) == 2 && parts[0] == "outputs" && canonical(parts[1], chain.ParseOutputID):
		return topic{kind: kindOutput, id: parts[1]}, true
	case len(parts) == 2 && parts[0] == "block-metadata" && canonical(parts[1], chain.ParseMessageID):
		return topic{kind: kindBlockMetadata, id: parts[1]}, true
	case len(parts) == 3 && parts[0] == "transactions" && parts[2] == "included-block" &&
		canonical(parts[1], chain.ParseTransactionID):
		return topic{kind: kindIncluded, id: parts[1]}, true
	case (len(parts) == 4 || len(parts) == 5 && parts[4] == "spent") && parts[0] == "outputs" && parts[1] == "unlock" &&
		conditions[parts[2]] && bech32Of(parts[3], hrp):
		return topic{kind: kindUnlock, cond: parts[2], id: parts[3], spent: len(parts) == 5}, true
	}
	return topic{}, false
}

// canonical tells whether s parses as an ID and is written as the broker writes it.
func canonical[T interface{ String() string }](s string, parse func(string) (T, error)) bool {
	id, err := parse(s)
	return err == nil && id.String() == s
}

// bech32Of tells whether s is an address in bech32 of hrp (any hrp when hrp is ""), in
// lowercase as the broker writes it.
func bech32Of(s, hrp string) bool {
	a, err := chain.ParseAddress(s)
	if err != nil {
		return false
	}
	sep := strings.LastIndex(s, "1") // bech32's separator is its last "1"
	prefix := s[:max(sep, 0)]
	return sep > 0 && (hrp == "" || prefix == hrp) && a.Bech32(prefix) == s
}

// outputID is an output topic's ID (parseTopic checked its form).
func (t topic) outputID() chain.OutputID {
	id, _ := chain.ParseOutputID(t.id)
	return id
}

// String is the topic's name.
func (t topic) String() string {
	switch t.kind {
	case kindLatest:
		return topicLatest
	case kindConfirmed:
		return topicConfirmed
	case kindMilestones:
		return topicMilestones
	case kindOutput:
		return "outputs/" + t.id
	case kindBlockMetadata:
		return "block-metadata/" + t.id
	case kindIncluded:
		return "transactions/" + t.id + "/included-block"
	case kindUnlock:
		return unlockTopic(t.cond, t.id, t.spent)
	}
	return ""
}

// unlockTopic is outputs/unlock/{cond}/{address}, with /spent for a spend.
func unlockTopic(cond, address string, spent bool) string {
	s := unlockPrefix + cond + "/" + address
	if spent {
		s += "/spent"
	}
	return s
}
