import Foundation
import RolodeckCLI

let status = Rolodeck.run(Array(CommandLine.arguments.dropFirst()),
                          environment: ProcessInfo.processInfo.environment, console: .standard())
exit(status.rawValue)
