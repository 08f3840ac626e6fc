import subprocess, signal, time, sys
OLD, NEW = sys.argv[1], sys.argv[2]  # sig.py OLD NEW: in a directory holding f.fifo (mkfifo) and app.snii
for b in [OLD, NEW]:
    for args in [["inspect","f.fifo"],["verify","f.fifo"],["query","f.fifo","x"],["merge","-o","m.snii","f.fifo","app.snii"],["get","f.fifo","0"]]:
        for sig in [signal.SIGINT, signal.SIGTERM]:
            p = subprocess.Popen([b]+args, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
            time.sleep(0.3)
            p.send_signal(sig)
            try:
                rc = p.wait(3)
                print(b, args[0], sig.name, "rc", rc, p.stderr.read()[:120])
            except subprocess.TimeoutExpired:
                p.send_signal(sig)
                try:
                    rc = p.wait(3); print(b, args[0], sig.name, "needed 2nd signal rc", rc, p.stderr.read()[:120])
                except subprocess.TimeoutExpired:
                    p.kill(); p.wait(); print(b, args[0], sig.name, "HUNG")
