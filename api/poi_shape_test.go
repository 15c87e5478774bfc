package api

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
)

// The JSON of inx-chronicle's CreateProofResponse (api/poi/responses.rs): field names and
// JSON types, "?" marking a member serde skips when empty. milestone is iota-sdk's
// MilestonePayloadDto, block its BlockDto, proof MerkleAuditPathDto.
var (
	chronicleProofShape     = map[string]string{"milestone": "object", "block": "object", "proof": "object"}
	chronicleMilestoneShape = map[string]string{"type": "number", "index": "number", "timestamp": "number",
		"protocolVersion": "number", "previousMilestoneId": "string", "parents": "array",
		"inclusionMerkleRoot": "string", "appliedMerkleRoot": "string", "metadata": "string?", "options": "array?",
		"signatures": "array"}
	chronicleSignatureShape = map[string]string{"type": "number", "publicKey": "string", "signature": "string"}
	chronicleBlockShape     = map[string]string{"protocolVersion": "number", "parents": "array", "payload": "object?",
		"nonce": "string"}
	chronicleValidShape = map[string]string{"valid": "boolean"}
)

// rawJSONType is the JSON type of raw: jsonType's, with every array an "array".
func rawJSONType(raw json.RawMessage) string {
	var v any
	_ = json.Unmarshal(raw, &v)
	switch t := jsonType(v); {
	case v == nil:
		return "null"
	case strings.HasPrefix(t, "[]"):
		return "array"
	default:
		return t
	}
}

// checkShape fails the test unless raw is an object with exactly shape's members (the
// optional ones may be absent), each of its JSON type.
func checkRawShape(t *testing.T, what string, raw json.RawMessage, shape map[string]string) map[string]json.RawMessage {
	t.Helper()
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	for name, typ := range shape {
		optional := strings.HasSuffix(typ, "?")
		typ = strings.TrimSuffix(typ, "?")
		v, ok := obj[name]
		switch {
		case !ok && !optional:
			t.Errorf("%s lacks %s", what, name)
		case ok && rawJSONType(v) != typ:
			t.Errorf("%s.%s is a JSON %s, Chronicle's a %s", what, name, rawJSONType(v), typ)
		}
	}
	for name := range obj {
		if _, ok := shape[name]; !ok {
			t.Errorf("%s has %s, Chronicle's has not (members %v)", what, name, slices.Sorted(maps.Keys(shape)))
		}
	}
	return obj
}

// checkProofShape checks a create answer against Chronicle's response types.
func checkProofShape(t *testing.T, proof []byte) {
	t.Helper()
	top := checkRawShape(t, "proof answer", proof, chronicleProofShape)
	ms := checkRawShape(t, "milestone", top["milestone"], chronicleMilestoneShape)
	var sigs []json.RawMessage
	_ = json.Unmarshal(ms["signatures"], &sigs)
	for _, s := range sigs {
		checkRawShape(t, "signature", s, chronicleSignatureShape)
	}
	checkRawShape(t, "block", top["block"], chronicleBlockShape)
	checkPathShape(t, "proof", top["proof"], true)
}

// checkPathShape: a path level is {l, r} (r absent only at the top of a tree of one
// block); each side a level, {h: string} or {value: string}.
func checkPathShape(t *testing.T, what string, raw json.RawMessage, level bool) {
	t.Helper()
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	switch {
	case obj["l"] != nil:
		checkRawShape(t, what, raw, map[string]string{"l": "object", "r": "object?"})
		checkPathShape(t, what+".l", obj["l"], false)
		if obj["r"] != nil {
			checkPathShape(t, what+".r", obj["r"], false)
		}
	case level:
		t.Errorf("%s: a path level without l: %s", what, raw)
	case obj["h"] != nil:
		checkRawShape(t, what, raw, map[string]string{"h": "string"})
	default:
		checkRawShape(t, what, raw, map[string]string{"value": "string"})
	}
}
