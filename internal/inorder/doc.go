// Package inorder runs work on a sequence of batches on several goroutines
// and hands the results back in the order of the batches: the pipeline of
// snii grep (records read and matched a batch at a time) and of the records
// snii query prints (records read and formatted a batch at a time).
package inorder
