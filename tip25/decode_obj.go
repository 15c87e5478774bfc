package tip25

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// decoder carries the first error of a decode, so the readers below can run straight
// through and the caller checks once (like the chain codec's reader).
type decoder struct{ err error }

func (d *decoder) fail(path string, kind error, format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s: %s", kind, path, fmt.Sprintf(format, args...))
	}
}

// obj is one JSON object being read; done refuses the keys nobody read.
type obj struct {
	d    *decoder
	path string
	m    map[string]json.RawMessage
	read map[string]bool
}

func (d *decoder) object(path string, raw json.RawMessage) *obj {
	o := &obj{d: d, path: path, read: map[string]bool{}}
	if d.err == nil && (json.Unmarshal(raw, &o.m) != nil || o.m == nil) {
		d.fail(path, ErrMalformed, "want a JSON object")
	}
	return o
}

func (o *obj) at(key string) string { return o.path + "." + strings.TrimPrefix(key, ".") }

// raw returns a field's JSON; a missing required field fails, a missing optional one is nil.
func (o *obj) raw(key string, required bool) json.RawMessage {
	o.read[key] = true
	v, ok := o.m[key]
	if !ok && required {
		o.d.fail(o.at(key), ErrMalformed, "missing")
	}
	if o.d.err != nil || !ok {
		return nil
	}
	return v
}

// done fails on fields the reader did not ask for: strictness against typos and against
// fields of another type (an "aliasId" on a basic output).
func (o *obj) done() {
	var extra []string
	for k := range o.m {
		if !o.read[k] {
			extra = append(extra, k)
		}
	}
	if len(extra) > 0 {
		slices.Sort(extra)
		o.d.fail(o.path, ErrMalformed, "unknown field(s) %s", strings.Join(extra, ", "))
	}
}

// typ reads "type" and checks it against the codes the context allows.
func (o *obj) typ(what string, allowed ...uint8) uint8 {
	t := uint8(o.uint("type", 8))
	if o.d.err == nil && !slices.Contains(allowed, t) {
		o.d.fail(o.at("type"), ErrUnknownType, "%s type %d not allowed here", what, t)
	}
	return t
}

// list reads an array of at most maxLen items (the binary count's range); a missing
// optional list is empty.
func (o *obj) list(key string, required bool, maxLen int) []json.RawMessage {
	v := o.raw(key, required)
	if v == nil {
		return nil
	}
	var items []json.RawMessage
	if json.Unmarshal(v, &items) != nil || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
		o.d.fail(o.at(key), ErrMalformed, "want an array, got %s", short(v))
		return nil
	}
	if len(items) > maxLen {
		o.d.fail(o.at(key), ErrMalformed, "%d items, at most %d allowed", len(items), maxLen)
		return nil
	}
	return items
}

func (o *obj) child(key string) *obj { return o.d.object(o.at(key), o.raw(key, true)) }

func indexed(path string, i int) string { return fmt.Sprintf("%s[%d]", path, i) }

// short keeps error messages readable when handed a huge bogus value.
func short(v []byte) string {
	if len(v) > 40 {
		return string(v[:40]) + "..."
	}
	return string(v)
}
