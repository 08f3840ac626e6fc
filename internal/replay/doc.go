// Package replay measures what a codec policy buys on captured .prx windows
// (package internal/codec/prx/capture): for each policy and each order of the windows, the bytes
// stored beyond the smallest frames, the frames per codec, the decode time of the
// stored frames against the smallest frames, and the cost of the choice itself.
//
// Replay builds each eligible window's candidate frames once (Prepare): its fast
// frame (the smaller of PFOR and RAW, PFOR on ties) and, when zstd is strictly
// smaller, its zstd frame, with prx.Encoder, so the frames and their exact sizes
// are the writer's. A policy is then applied by a fresh chooser.Chooser fed the
// exact sizes in the chosen order (Set.Apply): the decision the writer's encoder
// makes, without recompressing per policy. Set.Verify re-encodes with
// prx.Encoder under the policy and checks that it stores byte-identical frames.
//
// Orders: as captured (the writer's emission order), ascending or descending
// saving percent (stable), or a seeded shuffle (math/rand/v2 PCG).
//
// Decode time is measured in paired cycles on the eligible windows: in each
// cycle, for each policy and order, Blocks blocks of A B B A passes, where A
// decodes every smallest frame and B every stored frame, each pass with the same
// pooled prx.Source the segment reader uses (CRC checked, whole window). The
// ratio B/A of the per-cycle medians is reported as the median over cycles and
// its min-max. The choice cost is a fresh chooser timed alone over the sizes in
// the same order, repeated until at least Options.ChoiceWindows choices.
//
// Outputs: Report.WriteText (tables), WriteJSON, WriteCSV (every decode sample)
// and WriteSVG (extra bytes vs decode ratio, one point per policy and order).
// The capture format itself is described in package internal/codec/prx/capture.
package replay
