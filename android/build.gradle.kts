// The Android Gradle Plugin and Kotlin's, one version for every module (each applies the plugins
// it needs; the versions are in gradle/libs.versions.toml, as every library's), and what the Android
// modules share. harness/ is not a Gradle project: it holds what
// only the Maven host harness needs.
import com.android.build.api.dsl.AndroidSourceSet
import com.android.build.api.dsl.ApplicationExtension
import com.android.build.api.dsl.CompileOptions
import com.android.build.api.dsl.LibraryExtension
import org.gradle.api.publish.PublishingExtension
import org.gradle.api.publish.maven.MavenPublication

plugins {
    alias(libs.plugins.android.application) apply false
    alias(libs.plugins.android.library) apply false
    // sdk-ktx's and client-ktx's; the same Kotlin as the host harness (pom.xml).
    alias(libs.plugins.kotlin.android) apply false
    // sdk-ksp's, a plain JVM library, and KSP, which runs it on the notes sample.
    alias(libs.plugins.kotlin.jvm) apply false
    alias(libs.plugins.ksp) apply false
}

// The layout every Android module shares with the host harness (pom.xml): its manifest next to its
// build file, its resources in res/, its Java in src/main/java, and Java 11, the level the harness
// compiles with (--release 11). The tests in src/test run in the harness (make test-android) only.
fun sharedLayout(sourceSets: NamedDomainObjectContainer<out AndroidSourceSet>, compileOptions: CompileOptions) {
    sourceSets.getByName("main") {
        manifest.srcFile("AndroidManifest.xml")
        res.setSrcDirs(listOf("res"))
    }
    sourceSets.getByName("test") {
        java.setSrcDirs(emptyList<String>())
        resources.setSrcDirs(emptyList<String>())
    }
    compileOptions.sourceCompatibility = JavaVersion.VERSION_11
    compileOptions.targetCompatibility = JavaVersion.VERSION_11
}

// Each module's identity is in its own gradle.properties (mobilemcp.applicationId for an app,
// mobilemcp.namespace for a library), the SDK levels in gradle.properties here; the host harness
// reads the same files. A module's build file adds only what is its own.
subprojects {
    val module = this
    fun prop(name: String): String = module.property(name).toString()

    pluginManager.withPlugin("com.android.application") {
        module.extensions.configure<ApplicationExtension> {
            namespace = prop("mobilemcp.applicationId")
            compileSdk = prop("mobilemcp.compileSdk").toInt()
            defaultConfig {
                applicationId = prop("mobilemcp.applicationId")
                minSdk = prop("mobilemcp.minSdk").toInt()
                targetSdk = prop("mobilemcp.targetSdk").toInt()
                // From the tag in a release (ci/pipeline.sh passes both); a local build is a snapshot.
                versionCode = providers.gradleProperty("mobilemcp.versionCode").getOrElse("1").toInt()
                versionName = providers.gradleProperty("mobilemcp.version").getOrElse("0-SNAPSHOT")
            }
            sharedLayout(sourceSets, compileOptions)
        }
    }

    pluginManager.withPlugin("com.android.library") {
        module.extensions.configure<LibraryExtension> {
            namespace = prop("mobilemcp.namespace")
            compileSdk = prop("mobilemcp.compileSdk").toInt()
            defaultConfig {
                minSdk = prop("mobilemcp.minSdk").toInt()
            }
            sharedLayout(sourceSets, compileOptions)
        }
    }
}

// The libraries a release publishes (sdk, client, client-ktx, sdk-testing, sdk-ktx, and the jars
// sdk-testing-engine and sdk-ksp): a module that applies maven-publish and names its artifact
// (mobilemcp.artifactId in its gradle.properties) gets one publication, "release", of its release
// variant (the java component, for a jar) with sources and javadoc, the POM Maven Central
// asks for, and the version -Pmobilemcp.version gives (all of them one version; a -SNAPSHOT one
// unless a release passes its tag's). With
// -Pmobilemcp.stagingRepo=DIR, publishAllPublicationsToStagingRepository writes it to DIR, which
// ci/publish-central.sh signs and uploads (ci/pipeline.sh stage).
subprojects {
    val module = this
    pluginManager.withPlugin("maven-publish") {
        pluginManager.withPlugin("com.android.library") {
            module.extensions.configure<LibraryExtension> {
                publishing {
                    singleVariant("release") {
                        withSourcesJar()
                        withJavadocJar()
                    }
                }
            }
        }
        module.extensions.configure<PublishingExtension> {
            publications {
                register<MavenPublication>("release") {
                    groupId = "io.github.mobilemcp"
                    artifactId = module.property("mobilemcp.artifactId").toString()
                    version = providers.gradleProperty("mobilemcp.version").getOrElse("0-SNAPSHOT")
                    module.afterEvaluate {
                        from(components.findByName("release") ?: components["java"])
                    }
                    pom {
                        name.set("mobilemcp " + artifactId)
                        description.set(module.property("mobilemcp.description").toString())
                        url.set("https://github.com/mobilemcp/mobilemcp")
                        licenses {
                            license {
                                name.set("Apache License, Version 2.0")
                                url.set("https://www.apache.org/licenses/LICENSE-2.0.txt")
                            }
                        }
                        developers {
                            developer {
                                id.set("mobilemcp")
                                name.set("The mobilemcp authors")
                                url.set("https://github.com/mobilemcp")
                            }
                        }
                        scm {
                            url.set("https://github.com/mobilemcp/mobilemcp")
                            connection.set("scm:git:https://github.com/mobilemcp/mobilemcp.git")
                        }
                    }
                }
            }
            repositories {
                providers.gradleProperty("mobilemcp.stagingRepo").orNull?.let { dir ->
                    maven {
                        name = "Staging"
                        url = uri(dir)
                    }
                }
            }
        }
    }
}

// LICENSE (the repository's, Apache-2.0) in every published file. A jar (the engine jar, and every
// sources and javadoc jar) carries it as META-INF/LICENSE. An AAR carries it at its root, beside
// classes.jar: AGP drops /META-INF/LICENSE (and /LICENSE) from a library's Java resources by default
// (its packaging excludes), so classes.jar cannot hold it, and a root file of the AAR reaches no
// app's APK, where every library's copy would clash. The release gate (internal/cmd/releasecheck)
// checks both places; make release-check checks the jars it builds the same way.
abstract class LicenseResource : DefaultTask() {
    @get:InputFile
    abstract val license: RegularFileProperty

    @get:OutputDirectory
    abstract val outputDir: DirectoryProperty

    @TaskAction
    fun copy() {
        val target = outputDir.get().file("META-INF/LICENSE").asFile
        target.parentFile.mkdirs()
        license.get().asFile.copyTo(target, overwrite = true)
    }
}

subprojects {
    val licenseFile = rootProject.layout.projectDirectory.file("../LICENSE")
    val licenseResource = tasks.register<LicenseResource>("licenseResource") {
        license.set(licenseFile)
        outputDir.set(layout.buildDirectory.dir("generated/license"))
    }
    tasks.withType<Jar>().configureEach {
        from(licenseResource)
        duplicatesStrategy = DuplicatesStrategy.EXCLUDE
    }
    // bundleReleaseAar (and each variant's bundle<Variant>Aar) is the Zip task that writes the AAR.
    tasks.withType<Zip>().configureEach {
        if (name.startsWith("bundle") && name.endsWith("Aar")) {
            from(licenseFile)
        }
    }
}
