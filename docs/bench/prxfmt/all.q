phrase	mid	traceback most recent call last
phrase	mid	no such file or directory
phrase	rare	modulenotfounderror no module named
phrase	common	returncode 0 returncode
phrase	rare	thought let me
phrase	common	i need to
phrase	rare	the logic is
phrase	rare	path error an existing
phrase	rare	place where
phrase	rare	returncode output header fromstring bytes
phrase	rare	import nullcontext from io
phrase	rare	user username unq so constraint
phrase	rare	getattr called for iobase closed
phrase	rare	only if the
phrase	mid	bash nl ba django db migrations
phrase	mid	db migrations
phrase	mid	example here are some thoughts
phrase	mid	response example here are some
phrase	mid	the server
phrase	mid	lib matplotlib
phrase	mid	false output
phrase	mid	bash python reproduce
phrase	common	returncode output output
phrase	common	returncode output
phrase	common	output output
phrase	common	django db
phrase	common	in the
phrase	common	reproduce issue
phrase	long	example failure to follow these
phrase	long	empty value self assertequal display
phrase	long	value self value self parse
phrase	long	existing models answer and question
phrase	zero	answer from
phrase	zero	may not appear
phrase	zero	verification succeeded for
phrase	zero	increases system memory
phrase	zero	for debuggers this increases
phrase	zero-absent	synced instances
phrase	zero-absent	received completed container container
typeerror unsupported operand type
