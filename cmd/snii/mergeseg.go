package main

import (
	"context"
	"errors"
)

// errMergeUnavailable is returned until writer.Merge exists (issue 5).
var errMergeUnavailable = errors.New("merge is not available yet in this build of snii (writer.Merge lands with issue 5)")

// mergeSegments writes the merge of ins to dst with the policy flags.
func mergeSegments(ctx context.Context, dst string, ins []mergeInput, p *policyFlags) error {
	_, _, _, _ = ctx, dst, ins, p
	return errMergeUnavailable
}
