// Placeholder until the CLI lands (the lead is writing it).
int main() { return 3; }
