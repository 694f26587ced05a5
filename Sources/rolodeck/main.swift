import RolodeckCLI

Rolodeck.main()
