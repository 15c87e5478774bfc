package chain

// WhiteFlagOrder orders a milestone's cone (TIP-2): a depth-first walk from the
// milestone's parents in their listed order that enters, for each block, its parents in
// their listed order and emits a block after all of its parents. inCone reports whether
// a block belongs to the cone (it is neither referenced by an earlier milestone nor a
// solid entry point) and gives its parents; the walk neither enters nor emits blocks
// outside the cone. The walk is iterative: a cone may be thousands of blocks deep.
func WhiteFlagOrder(parents []MessageID, inCone func(MessageID) ([]MessageID, bool)) []MessageID {
	type frame struct {
		id      MessageID
		parents []MessageID
		next    int
	}
	visited := make(map[MessageID]bool)
	var order []MessageID
	var stack []frame
	push := func(id MessageID) {
		if visited[id] {
			return
		}
		visited[id] = true
		if ps, ok := inCone(id); ok {
			stack = append(stack, frame{id: id, parents: ps})
		}
	}
	for _, root := range parents {
		push(root)
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next < len(top.parents) {
				top.next++
				push(top.parents[top.next-1])
				continue
			}
			order = append(order, top.id)
			stack = stack[:len(stack)-1]
		}
	}
	return order
}
