package rest

import (
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Parsers of path and query values. Each returns a 400 naming the parameter and saying
// what was wrong; IDs come back as chain types whose text is the canonical form the
// indexer stores (lowercase 0x-hex), so "0xABC…" finds "0xabc…", and addresses as
// chain.Address (paired with their bech32 under the network's HRP by Input.Localize).

func parseID[T any](name, value string, parse func(string) (T, error)) (T, error) {
	id, err := parse(strings.ToLower(value))
	if err != nil {
		return id, BadParam(name, "%s", strings.TrimPrefix(err.Error(), chain.ErrMalformedID.Error()+": "))
	}
	return id, nil
}

// ParseAddress accepts bech32 under any HRP or 0x-hex; the request's input renders it
// under the keyspace's network HRP (input.localize), the form the tables hold.
func ParseAddress(name, value string) (chain.Address, error) {
	a, err := chain.ParseAddress(value)
	if err != nil {
		return a, BadParam(name, "want a bech32 address or 0x-hex of kind byte and 32 bytes: %s",
			strings.TrimPrefix(err.Error(), chain.ErrMalformedAddress.Error()+": "))
	}
	return a, nil
}

// ParseTag accepts 0x-hex of 1..64 bytes, the form tags are stored in.
func ParseTag(name, value string) (string, error) {
	digits, ok := strings.CutPrefix(strings.ToLower(value), "0x")
	if !ok {
		return "", BadParam(name, "want 0x-prefixed hex")
	}
	b, err := hex.DecodeString(digits)
	switch {
	case err != nil:
		return "", BadParam(name, "not hex: %v", err)
	case len(b) == 0 || len(b) > chain.MaxTagLength:
		return "", BadParam(name, "%d bytes, want 1 to %d", len(b), chain.MaxTagLength)
	}
	return "0x" + digits, nil
}

func parseBool(name, value string) (bool, error) {
	switch value {
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return false, BadParam(name, "want true or false, got %s", Quote(value))
}

func ParseUint32(name, value string) (uint32, error) {
	n, err := strconv.ParseUint(value, 10, 32)
	if err != nil {
		return 0, BadParam(name, "want an integer in 0..%d, got %s", uint32(math.MaxUint32), Quote(value))
	}
	return uint32(n), nil
}

// maxUnixSeconds is the last second of year 9999, the widest time Cassandra's
// timestamp column holds here.
const maxUnixSeconds = 253402300799

// parseTime accepts RFC 3339 or unix seconds.
func parseTime(name, value string) (time.Time, error) {
	if n, err := strconv.ParseInt(value, 10, 64); err == nil {
		if n < 0 || n > maxUnixSeconds {
			return time.Time{}, BadParam(name, "unix seconds out of range 0..%d", maxUnixSeconds)
		}
		return time.Unix(n, 0).UTC(), nil
	}
	t, err := time.Parse(time.RFC3339, value)
	if err != nil {
		return time.Time{}, BadParam(name, "want RFC 3339 (2022-10-01T00:00:00Z) or unix seconds, got %s", Quote(value))
	}
	if t.Unix() < 0 || t.Unix() > maxUnixSeconds {
		return time.Time{}, BadParam(name, "time out of range 1970..9999")
	}
	return t.UTC(), nil
}

// DateLayout is how dates (UTC days) are written: in paths, queries and answers.
const DateLayout = "2006-01-02"

// parseDate accepts a YYYY-MM-DD date (a UTC day) from 1970 on, as its midnight UTC.
func parseDate(name, value string) (time.Time, error) {
	t, err := time.Parse(DateLayout, value)
	if err != nil {
		return time.Time{}, BadParam(name, "want a date YYYY-MM-DD (2022-10-01), got %s", Quote(value))
	}
	if t.Year() < 1970 {
		return time.Time{}, BadParam(name, "date out of range 1970..9999")
	}
	return t, nil
}

// Quote shows a bad value in an error without echoing a huge one back.
func Quote(s string) string {
	const limit = 64
	if len(s) > limit {
		return strconv.Quote(s[:limit]) + "..."
	}
	return strconv.Quote(s)
}
