// LuceneBench is the Lucene side of the snii peer benchmark (bench/cmd/peers).
// It is compiled at run time against the Debian liblucene8-java jars and
// driven by the Go harness:
//
//   java LuceneBench build <docs.bin> <indexDir> [norms]
//       Index every document of docs.bin (big-endian u32 length + UTF-8 bytes,
//       one text field) with the shared analyzer, forceMerge(1), no compound
//       file, norms off (on with "norms", for BM25), positions on. Prints one
//       JSON line with the build time.
//
//   java LuceneBench serve <indexDir> <queries.tsv>
//       Open the index and answer commands on stdin, one line each:
//         warmup <millis>   run every query in a loop for that long  -> "ok <rounds>"
//         run <qi> <reps>   count query qi reps times (timed here)  -> "<count> <wall ns> <thread cpu ns>"
//         ids <qi>          matching doc ids                         -> "<n> id id ..."
//         top <qi> <k>      BM25 top k (IndexSearcher.search(q, k), default
//                           BM25Similarity; ties by doc id)          -> "<n> id:score ..."
//                           (scores as Float.toString: exact float32)
//         time <qi> <k> <reps>  run top k reps times (timed here)   -> "<n> <wall ns> <thread cpu ns>"
//         quit
//       The harness sends "run" commands in the same interleaved cycle as the
//       Go engines, so Lucene is timed in the same cycles as snii and bleve;
//       only the time inside the Java calls is reported (no pipe overhead).
//
// queries.tsv: one query a line, "<kind>\t<term> <term> ..." with terms
// already analyzed by the harness; kinds term, phrase, prefix, phraseprefix
// (the last term of prefix kinds is the prefix; every expansion is used),
// sloppy<N> (a PhraseQuery with slop N), or (a BooleanQuery of one SHOULD
// TermQuery per term), regexp and wildcard (RegexpQuery with the default
// flags and determinized-state limit, WildcardQuery; both with the
// constant-score rewrite, every expansion).
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.DataInputStream;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.FilteringTokenFilter;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.pattern.PatternTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.codecs.lucene87.Lucene87Codec;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.LogByteSizeMergePolicy;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.MultiPhraseQuery;
import org.apache.lucene.search.MultiTermQuery;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.RegexpQuery;
import org.apache.lucene.search.WildcardQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.SimpleCollector;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TotalHitCountCollector;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.Version;

public final class LuceneBench {
    static final String FIELD = "text";
    static final int MAX_TOKEN_BYTES = 255;
    static final Pattern TOKEN = Pattern.compile("[\\p{L}\\p{Nd}]+");

    /** Drops tokens longer than MAX_TOKEN_BYTES in UTF-8 (after lowercasing); the position stays taken. */
    static final class MaxBytesFilter extends FilteringTokenFilter {
        private final CharTermAttribute term = addAttribute(CharTermAttribute.class);

        MaxBytesFilter(TokenStream in) {
            super(in);
        }

        @Override
        protected boolean accept() {
            char[] b = term.buffer();
            int n = term.length();
            int bytes = 0;
            for (int i = 0; i < n; i++) {
                char c = b[i];
                if (c < 0x80) {
                    bytes += 1;
                } else if (c < 0x800) {
                    bytes += 2;
                } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(b[i + 1])) {
                    bytes += 4;
                    i++;
                } else {
                    bytes += 3;
                }
                if (bytes > MAX_TOKEN_BYTES) {
                    return false;
                }
            }
            return true;
        }
    }

    /** The shared analyzer: PatternTokenizer [\p{L}\p{Nd}]+ (group 0) + LowerCaseFilter + the byte limit. */
    static Analyzer analyzer() {
        return new Analyzer() {
            @Override
            protected TokenStreamComponents createComponents(String field) {
                Tokenizer src = new PatternTokenizer(TOKEN, 0);
                TokenStream ts = new LowerCaseFilter(src);
                ts = new MaxBytesFilter(ts);
                return new TokenStreamComponents(src, ts);
            }
        };
    }

    public static void main(String[] args) throws Exception {
        if (args.length >= 3 && args[0].equals("build")) {
            boolean norms = false;
            String stored = "";
            for (int i = 3; i < args.length; i++) {
                if (args[i].equals("norms")) {
                    norms = true;
                } else if (args[i].equals("stored=speed") || args[i].equals("stored=compression")) {
                    stored = args[i].substring(7);
                } else {
                    System.err.println("unknown build option " + args[i]);
                    System.exit(2);
                }
            }
            build(Paths.get(args[1]), Paths.get(args[2]), norms, stored);
        } else if (args.length == 3 && args[0].equals("serve")) {
            serve(Paths.get(args[1]), Paths.get(args[2]));
        } else {
            System.err.println("usage: LuceneBench build <docs.bin> <indexDir> [norms] [stored=speed|compression] | serve <indexDir> <queries.tsv>");
            System.exit(2);
        }
    }

    static void build(Path docs, Path dir, boolean norms, String stored) throws IOException {
        long start = System.nanoTime();
        FieldType ft = new FieldType();
        ft.setTokenized(true);
        // stored: the text is also a stored field, compressed by the codec's mode.
        ft.setStored(!stored.isEmpty());
        ft.setOmitNorms(!norms);
        ft.setIndexOptions(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS);
        ft.freeze();
        IndexWriterConfig cfg = new IndexWriterConfig(analyzer());
        if (stored.equals("speed")) {
            cfg.setCodec(new Lucene87Codec(Lucene87Codec.Mode.BEST_SPEED));
        } else if (stored.equals("compression")) {
            cfg.setCodec(new Lucene87Codec(Lucene87Codec.Mode.BEST_COMPRESSION));
        }
        cfg.setOpenMode(IndexWriterConfig.OpenMode.CREATE);
        // One flush at the end: doc ids follow insertion order.
        cfg.setRAMBufferSizeMB(1900);
        cfg.setUseCompoundFile(false);
        LogByteSizeMergePolicy mp = new LogByteSizeMergePolicy();
        mp.setNoCFSRatio(0.0);
        cfg.setMergePolicy(mp);
        int n = 0;
        long bytes = 0;
        try (FSDirectory d = FSDirectory.open(dir);
             IndexWriter w = new IndexWriter(d, cfg);
             DataInputStream in = new DataInputStream(new BufferedInputStream(new FileInputStream(docs.toFile()), 1 << 20))) {
            Field f = new Field(FIELD, "", ft);
            Document doc = new Document();
            doc.add(f);
            byte[] buf = new byte[1 << 16];
            while (true) {
                int len;
                try {
                    len = in.readInt();
                } catch (EOFException e) {
                    break;
                }
                if (buf.length < len) {
                    buf = new byte[Math.max(len, buf.length * 2)];
                }
                in.readFully(buf, 0, len);
                // Invalid UTF-8 becomes U+FFFD, a separator, as in the Go analyzer.
                f.setStringValue(new String(buf, 0, len, StandardCharsets.UTF_8));
                w.addDocument(doc);
                n++;
                bytes += len;
            }
            w.forceMerge(1);
            w.commit();
        }
        double secs = (System.nanoTime() - start) / 1e9;
        int segs;
        try (DirectoryReader r = DirectoryReader.open(FSDirectory.open(dir))) {
            segs = r.leaves().size();
            if (r.maxDoc() != n) {
                throw new IllegalStateException("maxDoc " + r.maxDoc() + " != docs " + n);
            }
        }
        long hwm = 0; // peak RSS of this JVM (Linux), 0 elsewhere
        try {
            for (String l : Files.readAllLines(Paths.get("/proc/self/status"))) {
                if (l.startsWith("VmHWM:")) {
                    hwm = Long.parseLong(l.substring(6).trim().split("\\s+")[0]);
                }
            }
        } catch (IOException e) {
            hwm = 0;
        }
        System.out.println("{\"peak_rss_kb\":" + hwm + ",\"docs\":" + n + ",\"bytes\":" + bytes + ",\"build_seconds\":" + secs
                + ",\"segments\":" + segs + ",\"lucene\":\"" + Version.LATEST + "\",\"java\":\""
                + System.getProperty("java.version") + "\"}");
    }

    static final class Q {
        final String kind;
        final String[] terms;

        Q(String kind, String[] terms) {
            this.kind = kind;
            this.terms = terms;
        }
    }

    static List<Q> readQueries(Path p) throws IOException {
        List<Q> out = new ArrayList<>();
        for (String line : Files.readAllLines(p, StandardCharsets.UTF_8)) {
            if (line.isEmpty()) {
                continue;
            }
            int tab = line.indexOf('\t');
            out.add(new Q(line.substring(0, tab), line.substring(tab + 1).split(" ")));
        }
        return out;
    }

    /** Builds the query; a phrase prefix is expanded here, so the expansion is timed. Null: no hit possible. */
    static Query query(IndexSearcher s, Q q) throws IOException {
        switch (q.kind) {
            case "term":
                return new TermQuery(new Term(FIELD, q.terms[0]));
            case "phrase":
                return new PhraseQuery(FIELD, q.terms);
            case "prefix":
                return new PrefixQuery(new Term(FIELD, q.terms[0]));
            case "regexp": {
                RegexpQuery r = new RegexpQuery(new Term(FIELD, q.terms[0]));
                r.setRewriteMethod(MultiTermQuery.CONSTANT_SCORE_REWRITE);
                return r;
            }
            case "wildcard": {
                WildcardQuery w = new WildcardQuery(new Term(FIELD, q.terms[0]));
                w.setRewriteMethod(MultiTermQuery.CONSTANT_SCORE_REWRITE);
                return w;
            }
            case "or": {
                BooleanQuery.Builder b = new BooleanQuery.Builder();
                for (String t : q.terms) {
                    b.add(new TermQuery(new Term(FIELD, t)), BooleanClause.Occur.SHOULD);
                }
                return b.build();
            }
            case "phraseprefix": {
                Terms terms = MultiTerms.getTerms(s.getIndexReader(), FIELD);
                if (terms == null) {
                    return null;
                }
                BytesRef prefix = new BytesRef(q.terms[q.terms.length - 1]);
                TermsEnum te = terms.iterator();
                List<Term> exp = new ArrayList<>();
                if (te.seekCeil(prefix) != TermsEnum.SeekStatus.END) {
                    do {
                        BytesRef t = te.term();
                        if (!startsWith(t, prefix)) {
                            break;
                        }
                        exp.add(new Term(FIELD, BytesRef.deepCopyOf(t)));
                    } while (te.next() != null);
                }
                if (exp.isEmpty()) {
                    return null;
                }
                MultiPhraseQuery.Builder b = new MultiPhraseQuery.Builder();
                for (int i = 0; i < q.terms.length - 1; i++) {
                    b.add(new Term(FIELD, q.terms[i]));
                }
                b.add(exp.toArray(new Term[0]));
                return b.build();
            }
            default:
                if (q.kind.startsWith("sloppy")) {
                    return new PhraseQuery(Integer.parseInt(q.kind.substring(6)), FIELD, q.terms);
                }
                throw new IllegalArgumentException("unknown kind " + q.kind);
        }
    }

    static boolean startsWith(BytesRef t, BytesRef p) {
        if (t.length < p.length) {
            return false;
        }
        for (int i = 0; i < p.length; i++) {
            if (t.bytes[t.offset + i] != p.bytes[p.offset + i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Counts by iterating the matches (TotalHitCountCollector through search), never
     * IndexSearcher.count, which answers a one-term query from the doc frequency.
     */
    static int count(IndexSearcher s, Q q) throws IOException {
        Query query = query(s, q);
        if (query == null) {
            return 0;
        }
        TotalHitCountCollector c = new TotalHitCountCollector();
        s.search(query, c);
        return c.getTotalHits();
    }

    static final class IdCollector extends SimpleCollector {
        final List<Integer> ids = new ArrayList<>();
        int base;

        @Override
        protected void doSetNextReader(LeafReaderContext ctx) {
            base = ctx.docBase;
        }

        @Override
        public void collect(int doc) {
            ids.add(base + doc);
        }

        @Override
        public ScoreMode scoreMode() {
            return ScoreMode.COMPLETE_NO_SCORES;
        }
    }

    /** Counts every hit and keeps the first k doc ids (one segment: collected in doc order). */
    static final class FirstK extends SimpleCollector {
        final int[] ids;
        int n;
        int count;
        int base;

        FirstK(int k) {
            ids = new int[k];
        }

        @Override
        protected void doSetNextReader(LeafReaderContext ctx) {
            base = ctx.docBase;
        }

        @Override
        public void collect(int doc) {
            if (n < ids.length) {
                ids[n++] = base + doc;
            }
            count++;
        }

        @Override
        public ScoreMode scoreMode() {
            return ScoreMode.COMPLETE_NO_SCORES;
        }
    }

    static void serve(Path dir, Path queries) throws IOException {
        List<Q> qs = readQueries(queries);
        try (DirectoryReader r = DirectoryReader.open(FSDirectory.open(dir))) {
            IndexSearcher s = new IndexSearcher(r);
            // No query cache: repeated queries would otherwise be answered from cached bitsets.
            s.setQueryCache(null);
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
            out.write("ready " + r.leaves().size() + " " + r.maxDoc() + " " + Version.LATEST + "\n");
            out.flush();
            String line;
            while ((line = in.readLine()) != null) {
                String[] f = line.split(" ");
                switch (f[0]) {
                    case "warmup": {
                        long until = System.nanoTime() + Long.parseLong(f[1]) * 1_000_000L;
                        long rounds = 0;
                        long sink = 0;
                        do {
                            for (Q q : qs) {
                                sink += count(s, q);
                            }
                            rounds++;
                        } while (System.nanoTime() < until);
                        out.write("ok " + rounds + " " + sink + "\n");
                        break;
                    }
                    case "run": {
                        Q q = qs.get(Integer.parseInt(f[1]));
                        int reps = Integer.parseInt(f[2]);
                        int c = 0;
                        long c0 = threads.getCurrentThreadCpuTime();
                        long t0 = System.nanoTime();
                        for (int i = 0; i < reps; i++) {
                            c = count(s, q);
                        }
                        long ns = System.nanoTime() - t0;
                        long cpu = threads.getCurrentThreadCpuTime() - c0;
                        out.write(c + " " + ns + " " + cpu + "\n");
                        break;
                    }
                    case "ids": {
                        Q q = qs.get(Integer.parseInt(f[1]));
                        Query query = query(s, q);
                        StringBuilder sb = new StringBuilder();
                        if (query == null) {
                            sb.append("0");
                        } else {
                            IdCollector c = new IdCollector();
                            s.search(query, c);
                            java.util.Collections.sort(c.ids);
                            sb.append(c.ids.size());
                            for (int id : c.ids) {
                                sb.append(' ').append(id);
                            }
                        }
                        out.write(sb.append('\n').toString());
                        break;
                    }
                    case "top": {
                        Query query = query(s, qs.get(Integer.parseInt(f[1])));
                        StringBuilder sb = new StringBuilder();
                        if (query == null) {
                            sb.append("0");
                        } else {
                            TopDocs td = s.search(query, Integer.parseInt(f[2]));
                            sb.append(td.scoreDocs.length);
                            for (ScoreDoc sd : td.scoreDocs) {
                                sb.append(' ').append(sd.doc).append(':').append(Float.toString(sd.score));
                            }
                        }
                        out.write(sb.append('\n').toString());
                        break;
                    }
                    case "time": {
                        Query query = query(s, qs.get(Integer.parseInt(f[1])));
                        int k = Integer.parseInt(f[2]);
                        int reps = Integer.parseInt(f[3]);
                        int n = 0;
                        long c0 = threads.getCurrentThreadCpuTime();
                        long t0 = System.nanoTime();
                        for (int i = 0; i < reps && query != null; i++) {
                            n = s.search(query, k).scoreDocs.length;
                        }
                        long ns = System.nanoTime() - t0;
                        long cpu = threads.getCurrentThreadCpuTime() - c0;
                        out.write(n + " " + ns + " " + cpu + "\n");
                        break;
                    }
                    case "fetch": {
                        // fetch qi reps k: count every hit and load the stored text of the
                        // first k hits in doc order; answers count, wall ns, cpu ns, the
                        // bytes loaded and the FNV-1a hash of the loaded texts (UTF-8, in order).
                        Q q = qs.get(Integer.parseInt(f[1]));
                        int reps = Integer.parseInt(f[2]);
                        int k = Integer.parseInt(f[3]);
                        int c = 0;
                        long loaded = 0;
                        long hash = 0;
                        long c0 = threads.getCurrentThreadCpuTime();
                        long t0 = System.nanoTime();
                        for (int i = 0; i < reps; i++) {
                            FirstK col = new FirstK(k);
                            Query query = query(s, q);
                            if (query != null) {
                                s.search(query, col);
                            }
                            c = col.count;
                            loaded = 0;
                            hash = 0xcbf29ce484222325L;
                            for (int j = 0; j < col.n; j++) {
                                String text = s.doc(col.ids[j]).get(FIELD);
                                byte[] b = text.getBytes(StandardCharsets.UTF_8);
                                loaded += b.length;
                                for (byte x : b) {
                                    hash ^= (x & 0xff);
                                    hash *= 0x100000001b3L;
                                }
                            }
                        }
                        long ns = System.nanoTime() - t0;
                        long cpu = threads.getCurrentThreadCpuTime() - c0;
                        out.write(c + " " + ns + " " + cpu + " " + loaded + " " + Long.toUnsignedString(hash) + "\n");
                        break;
                    }
                    case "quit":
                        out.flush();
                        return;
                    default:
                        out.write("error unknown command " + f[0] + "\n");
                }
                out.flush();
            }
        }
    }
}
