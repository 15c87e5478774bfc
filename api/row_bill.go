package api

import (
	"net/http"
	"net/netip"
	"sync"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// rowBill charges a request's client for the rows the request read: up to the moment
// its answer starts (before a byte of it leaves, so the client's next request already
// sees the charge) and again when it ends, for rows a streamed answer read after that.
type rowBill struct {
	g      *guard
	id     netip.Addr
	rows   *store.RowCount
	mu     sync.Mutex
	billed int64 // rows charged so far
}

// billRows gives r a context whose reads are counted and the writer that charges them.
func (g *guard) billRows(w http.ResponseWriter, r *http.Request, id netip.Addr) (http.ResponseWriter, *http.Request, *rowBill) {
	ctx, rows := store.WithRowCount(r.Context())
	b := &rowBill{g: g, id: id, rows: rows}
	return &billingWriter{ResponseWriter: w, bill: b}, r.WithContext(ctx), b
}

// settle charges the rows read since the last settle.
func (b *rowBill) settle() {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := b.rows.Rows()
	if n == b.billed {
		return
	}
	b.g.rowsRead.Add(float64(n - b.billed))
	if l := b.g.limits; l != nil {
		l.charge(b.id, l.tokensFor(n)-l.tokensFor(b.billed))
	}
	b.billed = n
}

// billingWriter settles the bill before each write of the answer.
type billingWriter struct {
	http.ResponseWriter
	bill *rowBill
}

func (w *billingWriter) WriteHeader(status int) {
	w.bill.settle()
	w.ResponseWriter.WriteHeader(status)
}

func (w *billingWriter) Write(p []byte) (int, error) {
	w.bill.settle()
	return w.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach the real writer.
func (w *billingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
