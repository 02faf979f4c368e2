package io.github.mobilemcp.ksp

/**
 * The name of the descriptor's param that the Kotlin name [kotlin] stands for, by rule: camelCase
 * words joined by `_` in lower case, so `startMinute` is `start_minute` and `userID` is `user_id`.
 */
fun snakeCase(kotlin: String): String {
    val out = StringBuilder()
    for ((i, c) in kotlin.withIndex()) {
        if (c.isUpperCase() && i > 0) {
            val prev = kotlin[i - 1]
            val next = kotlin.getOrNull(i + 1)
            if (prev.isLowerCase() || prev.isDigit() || (prev.isUpperCase() && next != null && next.isLowerCase())) out.append('_')
        }
        out.append(c.lowercaseChar())
    }
    return out.toString()
}

/** The Kotlin name that stands for the descriptor's name [snake] by rule: `start_minute` is `startMinute`. */
fun camelCase(snake: String): String {
    val parts = snake.split('_').filter { it.isNotEmpty() }
    if (parts.isEmpty()) return snake
    return parts.first() + parts.drop(1).joinToString("") { it.replaceFirstChar(Char::uppercaseChar) }
}
