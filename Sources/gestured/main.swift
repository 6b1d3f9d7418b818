import Commands

GesturedCommand.main()
