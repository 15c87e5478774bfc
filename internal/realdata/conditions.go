package realdata

import "encoding/json"

type chrAddressUC struct {
	Address json.RawMessage `json:"address"`
}

type chrReturnUC struct {
	ReturnAddress json.RawMessage `json:"return_address"`
	Amount        *flexUint       `json:"amount"`    // storage deposit return only
	Timestamp     *flexUint       `json:"timestamp"` // expiration only
}

type chrTimelockUC struct {
	Timestamp *flexUint `json:"timestamp"`
}

// Unlock condition type bytes (TIP-18) keyed by Chronicle's field names; the output serializer
// writes them in this type order, which is the wire's required ascending order.
var conditionFields = []struct {
	field string
	typ   uint8
}{
	{"address_unlock_condition", 0},
	{"storage_deposit_return_unlock_condition", 1},
	{"timelock_unlock_condition", 2},
	{"expiration_unlock_condition", 3},
	{"state_controller_address_unlock_condition", 4},
	{"governor_address_unlock_condition", 5},
	{"immutable_alias_address_unlock_condition", 6},
}

// unlockConditions writes the count and every condition present in fields (raw JSON by name).
func (w *writer) unlockConditions(fields map[string]json.RawMessage) {
	var present []int
	for i, c := range conditionFields {
		if _, ok := fields[c.field]; ok {
			present = append(present, i)
		}
	}
	w.count8(len(present), "unlock conditions")
	for _, i := range present {
		c := conditionFields[i]
		w.u8(c.typ)
		w.condition(c.typ, fields[c.field], c.field)
	}
}

// condition writes one condition body after its type byte.
func (w *writer) condition(typ uint8, js json.RawMessage, what string) {
	switch typ {
	case 0, 4, 5, 6:
		var uc chrAddressUC
		w.setErr(strictUnmarshal(js, &uc))
		if uc.Address == nil {
			w.fail("%s: no address", what)
			return
		}
		if got := w.address(uc.Address, what); typ == 6 && got != 8 {
			w.fail("%s: address type %d, want alias (8)", what, got)
		}
	case 1, 3:
		var uc chrReturnUC
		w.setErr(strictUnmarshal(js, &uc))
		w.returnCondition(typ, uc, what)
	case 2:
		var uc chrTimelockUC
		w.setErr(strictUnmarshal(js, &uc))
		w.unixTime(uc.Timestamp, what)
	}
}

// returnCondition writes storage deposit return (address + amount) or expiration
// (address + unix time); each must carry only its own second field.
func (w *writer) returnCondition(typ uint8, uc chrReturnUC, what string) {
	if uc.ReturnAddress == nil || (typ == 1) != (uc.Amount != nil) || (typ == 3) != (uc.Timestamp != nil) {
		w.fail("%s: wrong fields", what)
		return
	}
	w.address(uc.ReturnAddress, what)
	if typ == 1 {
		w.u64(uint64(*uc.Amount))
		return
	}
	w.unixTime(uc.Timestamp, what)
}

func (w *writer) unixTime(t *flexUint, what string) {
	if t == nil {
		w.fail("%s: no timestamp", what)
		return
	}
	v, err := t.u32(what)
	w.setErr(err)
	w.u32(v)
}
