// Work.java - a small Java program profiled with JDK Flight Recorder for
// trail's JFR reader tests (see README in this directory).
public class Work {
    static long hash(String s) {
        long h = 1469598103934665603L;
        for (int i = 0; i < s.length(); i++) {
            h ^= s.charAt(i);
            h *= 1099511628211L;
        }
        return h;
    }

    static String build(int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++)
            b.append("abcdefgh");
        return b.toString();
    }

    public static void main(String[] args) {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 3;
        long acc = 0, end = System.nanoTime() + seconds * 1_000_000_000L;
        for (int r = 0; System.nanoTime() < end; r++) {
            String s = build(64 + r % 64);
            for (int k = 0; k < 20; k++)
                acc += hash(s);
        }
        System.out.println(acc);
    }
}
