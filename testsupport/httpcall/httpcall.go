// Package httpcall makes the HTTP calls tests make of a server: one request, its answer
// with the body read and closed, and the test failed on a transport error.
package httpcall

import (
	"io"
	"net/http"
	"testing"
)

// Do sends req with c (http.DefaultClient when nil) and returns the answer and its body.
func Do(t testing.TB, c *http.Client, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// Get is Do of a GET of url with the default client.
func Get(t testing.TB, url string) (*http.Response, []byte) {
	t.Helper()
	return Do(t, nil, newRequest(t, http.MethodGet, url, nil))
}

// Post is Do of a POST of body to url, of the given content type, with the default client.
func Post(t testing.TB, url, contentType string, body io.Reader) (*http.Response, []byte) {
	t.Helper()
	req := newRequest(t, http.MethodPost, url, body)
	req.Header.Set("Content-Type", contentType)
	return Do(t, nil, req)
}

func newRequest(t testing.TB, method, url string, body io.Reader) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	return req
}
