// The notes sample tool for devices: `make notes-apk` builds it (after `make aar`), and its device
// test (src/androidTest, the pipeline's device step). It is built on the sdk alone, as any tool app
// would be; what every tool app shares is set in ../build.gradle.kts.
plugins {
    id("com.android.application")
}

android {
    defaultConfig {
        testInstrumentationRunner = "androidx.test.runner.AndroidJUnitRunner"
    }
}

dependencies {
    implementation(project(":sdk"))
    // NotesOnDeviceTest calls the tool as an assistant does, through the client library.
    androidTestImplementation(project(":client"))
    androidTestImplementation(libs.androidx.test.runner)
    androidTestImplementation(libs.junit)
}
