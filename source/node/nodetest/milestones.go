package nodetest

import (
	"net/http"
	"strconv"

	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
)

// lookupByIndex resolves a by-index argument; nil after it has answered an error.
func (s *Server) lookupByIndex(w http.ResponseWriter, arg string) *realdata.Milestone {
	i, err := strconv.ParseUint(arg, 10, 32)
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid milestone index %q", arg)
		return nil
	}
	return s.visible(w, uint32(i), arg)
}

// lookupByID resolves a milestone ID argument; nil after it has answered an error.
func (s *Server) lookupByID(w http.ResponseWriter, arg string) *realdata.Milestone {
	var id [32]byte
	if !parseID(arg, id[:]) {
		writeError(w, http.StatusBadRequest, "invalid milestone ID %q", arg)
		return nil
	}
	i, ok := s.ix.milestoneIndex(id)
	if !ok {
		writeError(w, http.StatusNotFound, "milestone %s not found", arg)
		return nil
	}
	return s.visible(w, i, arg)
}

// visible returns milestone i if the node has confirmed it yet and not pruned it.
func (s *Server) visible(w http.ResponseWriter, i uint32, arg string) *realdata.Milestone {
	m := s.ix.milestone(i)
	if m == nil || i > s.Confirmed() || s.prunedMilestone(i) {
		writeError(w, http.StatusNotFound, "milestone %s not found", arg)
		return nil
	}
	return m
}

func (s *Server) milestoneByIndex(w http.ResponseWriter, r *http.Request, arg string) {
	if m := s.lookupByIndex(w, arg); m != nil {
		writeMilestone(w, r, m)
	}
}

func (s *Server) milestoneByID(w http.ResponseWriter, r *http.Request, arg string) {
	if m := s.lookupByID(w, arg); m != nil {
		writeMilestone(w, r, m)
	}
}

func (s *Server) utxoByIndex(w http.ResponseWriter, _ *http.Request, arg string) {
	if m := s.lookupByIndex(w, arg); m != nil {
		writeUTXOChanges(w, m)
	}
}

func (s *Server) utxoByID(w http.ResponseWriter, _ *http.Request, arg string) {
	if m := s.lookupByID(w, arg); m != nil {
		writeUTXOChanges(w, m)
	}
}

func writeUTXOChanges(w http.ResponseWriter, m *realdata.Milestone) {
	created, consumed := []string{}, []string{}
	for _, o := range m.Created {
		created = append(created, hex0x(o.OutputID[:]))
	}
	for _, o := range m.Consumed {
		consumed = append(consumed, hex0x(o.OutputID[:]))
	}
	writeJSON(w, map[string]any{"index": m.Index, "createdOutputs": created, "consumedOutputs": consumed})
}

type signatureJSON struct {
	Type      int    `json:"type"`
	PublicKey string `json:"publicKey"`
	Signature string `json:"signature"`
}

// milestoneJSON is TIP-25's milestone payload. Options are never rendered (see writeMilestone).
type milestoneJSON struct {
	Type                int             `json:"type"`
	Index               uint32          `json:"index"`
	Timestamp           uint32          `json:"timestamp"`
	ProtocolVersion     uint8           `json:"protocolVersion"`
	PreviousMilestoneID string          `json:"previousMilestoneId"`
	Parents             []string        `json:"parents"`
	InclusionMerkleRoot string          `json:"inclusionMerkleRoot"`
	AppliedMerkleRoot   string          `json:"appliedMerkleRoot"`
	Metadata            string          `json:"metadata,omitempty"`
	Signatures          []signatureJSON `json:"signatures"`
}

// writeMilestone answers the payload bytes or its JSON. realdata keeps options only as bytes,
// so JSON for a milestone with options is refused rather than served without them.
func writeMilestone(w http.ResponseWriter, r *http.Request, m *realdata.Milestone) {
	if wantsBinary(r) {
		writeBinary(w, m.Payload)
		return
	}
	if hasOptions(m) {
		writeError(w, http.StatusNotImplemented, "nodetest renders milestone options only in binary")
		return
	}
	js := milestoneJSON{Type: 7, Index: m.Index, Timestamp: m.Timestamp, ProtocolVersion: m.ProtocolVersion,
		PreviousMilestoneID: hex0x(m.PreviousMilestoneID[:]), Parents: hexList(m.Parents),
		InclusionMerkleRoot: hex0x(m.InclusionMerkleRoot[:]), AppliedMerkleRoot: hex0x(m.AppliedMerkleRoot[:])}
	if len(m.Metadata) > 0 {
		js.Metadata = hex0x(m.Metadata)
	}
	for _, sig := range m.Signatures {
		js.Signatures = append(js.Signatures, signatureJSON{0, hex0x(sig.PublicKey[:]), hex0x(sig.Signature[:])})
	}
	writeJSON(w, js)
}

// hasOptions reads the essence's options count, which follows index, timestamp, version,
// previous ID, parents, the two roots and the metadata.
func hasOptions(m *realdata.Milestone) bool {
	at := 4 + 4 + 1 + 32 + 1 + 32*len(m.Parents) + 32 + 32 + 2 + len(m.Metadata)
	return at >= len(m.Essence) || m.Essence[at] != 0
}
