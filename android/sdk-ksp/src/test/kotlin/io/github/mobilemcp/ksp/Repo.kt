package io.github.mobilemcp.ksp

import java.io.File

/** The repository's root, which the build passes as mobilemcp.repoRoot. */
val repoRoot: File = File(System.getProperty("mobilemcp.repoRoot") ?: "../..").canonicalFile

/** The notes sample's descriptor, the one the tests check handlers against unless they write their own. */
val notesDescriptor = File(repoRoot, "android/notes/res/xml/mcp_capabilities.xml")
