/// Makes the descriptors in this folder a SwiftPM target, so adding or removing one re-runs the build plugin.
public enum LatchkeyDescriptors {}
