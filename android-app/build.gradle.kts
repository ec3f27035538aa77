// Plugin versions are pinned here, Gradle's in gradle/wrapper/gradle-wrapper.properties
// (8.11.1), library versions in app/build.gradle.kts. Kotlin matches the compiler
// that scripts/android-check.sh uses (npm kotlin-compiler 2.4.20). AGP 8.7.x needs
// Gradle >= 8.9 and JDK 17.
plugins {
    id("com.android.application") version "8.7.3" apply false
    id("org.jetbrains.kotlin.android") version "2.4.20" apply false
}
