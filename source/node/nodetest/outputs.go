package nodetest

import (
	"encoding/binary"
	"net/http"
)

// lookupOutput resolves an output ID the node knows at its confirmed milestone; nil after it
// has answered an error.
func (s *Server) lookupOutput(w http.ResponseWriter, arg string) *outputState {
	var id [34]byte
	if !parseID(arg, id[:]) {
		writeError(w, http.StatusBadRequest, "invalid output ID %q", arg)
		return nil
	}
	st, ok := s.ix.output(id)
	if !ok || st.out.Booked > s.Confirmed() {
		writeError(w, http.StatusNotFound, "output %s not found", arg)
		return nil
	}
	return &st
}

// output serves the output bytes (binary only, see noJSON).
func (s *Server) output(w http.ResponseWriter, r *http.Request, arg string) {
	st := s.lookupOutput(w, arg)
	switch {
	case st == nil:
	case !wantsBinary(r):
		noJSON(w)
	default:
		writeBinary(w, st.out.Raw)
	}
}

// outputMetadataJSON is TIP-25's output metadata; the spent fields only when spent.
type outputMetadataJSON struct {
	BlockID                  string `json:"blockId"`
	TransactionID            string `json:"transactionId"`
	OutputIndex              uint16 `json:"outputIndex"`
	IsSpent                  bool   `json:"isSpent"`
	MilestoneIndexSpent      uint32 `json:"milestoneIndexSpent,omitempty"`
	MilestoneTimestampSpent  uint32 `json:"milestoneTimestampSpent,omitempty"`
	TransactionIDSpent       string `json:"transactionIdSpent,omitempty"`
	MilestoneIndexBooked     uint32 `json:"milestoneIndexBooked"`
	MilestoneTimestampBooked uint32 `json:"milestoneTimestampBooked"`
	LedgerIndex              uint32 `json:"ledgerIndex"`
}

// outputMetadata answers as of the confirmed milestone: a spend above it is not seen yet.
// MisstateOutput and HideOutputMetadata alter the answer for one output.
func (s *Server) outputMetadata(w http.ResponseWriter, _ *http.Request, arg string) {
	st := s.lookupOutput(w, arg)
	if st == nil {
		return
	}
	o := st.out
	b, misstated, hidden := s.outputFaults(o.OutputID)
	if hidden {
		writeError(w, http.StatusNotFound, "output %s not found", arg)
		return
	}
	if !misstated {
		b = Booking{BlockID: o.BlockID, Index: o.Booked, Timestamp: o.BookedTimestamp}
	}
	confirmed := s.Confirmed()
	md := outputMetadataJSON{BlockID: hex0x(b.BlockID[:]), TransactionID: hex0x(o.OutputID[:32]),
		OutputIndex: binary.LittleEndian.Uint16(o.OutputID[32:]), MilestoneIndexBooked: b.Index,
		MilestoneTimestampBooked: b.Timestamp, LedgerIndex: confirmed}
	if sp := st.spent; sp != nil && sp.Spent <= confirmed {
		md.IsSpent, md.MilestoneIndexSpent, md.MilestoneTimestampSpent = true, sp.Spent, sp.SpentTimestamp
		md.TransactionIDSpent = hex0x(sp.SpentBy[:])
	}
	writeJSON(w, md)
}
