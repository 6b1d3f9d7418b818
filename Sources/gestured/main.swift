import GesturedCLI

GesturedCommand.main()
