package realdata

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
)

// bin is a byte string in MongoDB extended JSON: {"$binary":{"base64":"...","subType":"00"}}.
type bin []byte

func (b *bin) UnmarshalJSON(data []byte) error {
	var v struct {
		Binary *struct {
			Base64  string `json:"base64"`
			SubType string `json:"subType"`
		} `json:"$binary"`
	}
	if err := strictUnmarshal(data, &v); err != nil {
		return fmt.Errorf("extended-JSON binary: %w", err)
	}
	if v.Binary == nil {
		return fmt.Errorf("extended-JSON binary: no $binary in %.40s", data)
	}
	// Only the generic subtype carries plain bytes; anything else would need interpreting.
	if v.Binary.SubType != "00" && v.Binary.SubType != "" {
		return fmt.Errorf("extended-JSON binary: subType %q is not generic", v.Binary.SubType)
	}
	raw, err := base64.StdEncoding.DecodeString(v.Binary.Base64)
	if err != nil {
		return fmt.Errorf("extended-JSON binary: %w", err)
	}
	*b = raw
	return nil
}

// exact copies b into dst, failing unless the lengths match: IDs, keys and signatures have fixed
// sizes and a wrong size means the record is not what this package thinks it is.
func exact(dst []byte, b bin, what string) error {
	if len(b) != len(dst) {
		return fmt.Errorf("%s: %d bytes, want %d", what, len(b), len(dst))
	}
	copy(dst, b)
	return nil
}

// flexUint is an unsigned integer that Chronicle writes either as a JSON number or, for
// "stringify" fields (amounts, foundry serial numbers, token supply), as a decimal string.
type flexUint uint64

func (u *flexUint) UnmarshalJSON(data []byte) error {
	s := string(data)
	if len(data) > 0 && data[0] == '"' {
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return fmt.Errorf("unsigned integer %s: %w", data, err)
	}
	*u = flexUint(v)
	return nil
}

// u32 narrows a flexUint, failing instead of truncating.
func (u flexUint) u32(what string) (uint32, error) {
	if u > 1<<32-1 {
		return 0, fmt.Errorf("%s: %d does not fit uint32", what, u)
	}
	return uint32(u), nil
}

// strictUnmarshal rejects fields the target does not declare, so a field of the data that this
// package does not know about is an error rather than silently dropped bytes.
func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("trailing data after JSON value")
	}
	return nil
}
