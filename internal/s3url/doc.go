// Package s3url parses the s3://bucket/key URLs of the command line: one
// object, a prefix (a key ending in "/") or a glob.
package s3url
