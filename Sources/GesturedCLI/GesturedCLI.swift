public enum GesturedCommand {
    public static func main() {}
}
