// Package objstore is the storage seam between the segment reader and remote
// storage: the byte ranges a query stage asks for (Range), what reading them
// cost (Cost) and the interface a remote io.ReaderAt implements to be read
// in planned rounds (ReaderAt). Package reader consumes it; package
// objstore/s3 implements it over S3-compatible storage. It imports neither.
package objstore
