package api

// The path parameters several surfaces name alike (params_typed.go).

type blockIDParams struct {
	BlockID string `path:"blockId" kind:"messageID" doc:"block ID"`
}

type transactionIDParams struct {
	TransactionID string `path:"transactionId" kind:"transactionID" doc:"transaction ID"`
}

type milestoneIDParams struct {
	MilestoneID string `path:"milestoneId" kind:"milestoneID" doc:"milestone ID"`
}

type milestoneIndexParams struct {
	Index uint32 `path:"index" kind:"index" doc:"milestone index"`
}

type outputIDParams struct {
	OutputID string `path:"outputId" kind:"outputID" doc:"output ID"`
}
