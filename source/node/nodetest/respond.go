package nodetest

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// MIMEBinary is the media type of serialized objects (TIP-25); MIMEJSON that of JSON answers.
const (
	MIMEBinary = "application/vnd.iota.serializer-v1"
	MIMEJSON   = "application/json"
)

// wantsBinary reports whether the request's Accept asks for serialized bytes.
func wantsBinary(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept") {
		if strings.Contains(v, MIMEBinary) {
			return true
		}
	}
	return false
}

func writeJSON(w http.ResponseWriter, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "%v", err)
		return
	}
	w.Header().Set("Content-Type", MIMEJSON)
	_, _ = w.Write(body)
}

func writeBinary(w http.ResponseWriter, b []byte) {
	w.Header().Set("Content-Type", MIMEBinary)
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	_, _ = w.Write(b)
}

// errorBody is TIP-25's error answer.
type errorBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func writeError(w http.ResponseWriter, status int, format string, args ...any) {
	var e errorBody
	e.Error.Code, e.Error.Message = strconv.Itoa(status), fmt.Sprintf(format, args...)
	body, _ := json.Marshal(e)
	w.Header().Set("Content-Type", MIMEJSON)
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// noJSON answers a JSON request on a route served only in binary: the data holds outputs in
// Chronicle's model, not TIP-25 JSON, and the node client reads blocks and outputs as bytes.
func noJSON(w http.ResponseWriter) {
	writeError(w, http.StatusUnsupportedMediaType, "nodetest serves this route only as %s", MIMEBinary)
}

func hex0x(b []byte) string { return "0x" + hex.EncodeToString(b) }

func hexList(ids [][32]byte) []string {
	out := make([]string, len(ids))
	for i := range ids {
		out[i] = hex0x(ids[i][:])
	}
	return out
}

// parseID decodes 0x-prefixed hex of exactly len(dst) bytes into dst.
func parseID(s string, dst []byte) bool {
	if !strings.HasPrefix(s, "0x") || len(s) != 2+2*len(dst) {
		return false
	}
	_, err := hex.Decode(dst, []byte(s[2:]))
	return err == nil
}
