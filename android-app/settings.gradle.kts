// Wayfinder Android app. Built by scripts/android-build.sh (make apk), which
// first produces app/libs/wayfinder.aar with gomobile bind (make aar).
pluginManagement {
    repositories {
        google()
        mavenCentral()
        gradlePluginPortal()
    }
}

dependencyResolutionManagement {
    repositoriesMode.set(RepositoriesMode.FAIL_ON_PROJECT_REPOS)
    repositories {
        google()
        mavenCentral()
    }
}

rootProject.name = "wayfinder"
include(":app")
