// Package limits holds the bounds of one .prx positions window (Limits): how
// many documents, positions and plain payload bytes a window may hold.
//
// The same Limits is set where a segment is written (writer.Options.Limits,
// merge.Options.Limits: a window over a limit is split at document boundaries)
// and where it is read (reader.Options.Limits, reader.NewDecoders: a frame over
// the limits is rejected as corrupt before anything is allocated for it). The
// zero value means the defaults, which are also the maximums: a field may only
// be lowered.
package limits
