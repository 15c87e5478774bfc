package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// ReadJSONBody decodes a route's JSON body into dst: a 413 past the route's cap (the
// body reader is bounded, see Route.MaxBody), a 400 naming what the body should be
// when it is not JSON of that shape (unknown members included).
func ReadJSONBody(body io.Reader, dst any, what string) error {
	raw, err := io.ReadAll(body)
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return &APIError{Status: http.StatusRequestEntityTooLarge, Title: "body too large",
			Detail: fmt.Sprintf("body: over %d bytes", tooLarge.Limit)}
	} else if err != nil {
		return BadParam("body", "unreadable: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return BadParam("body", "not %s: %v", what, err)
	}
	if dec.More() {
		return BadParam("body", "not %s: more follows it", what)
	}
	return nil
}
