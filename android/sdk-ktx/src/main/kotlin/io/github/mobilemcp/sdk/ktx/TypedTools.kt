package io.github.mobilemcp.sdk.ktx

/**
 * Marks a function as the handler of the capability [id] that the app's descriptor
 * (`res/xml/mcp_capabilities.xml`) declares. The descriptor stays the one source of the tool's
 * contract; mobilemcp's KSP processor (`io.github.mobilemcp:sdk-ksp`) checks at compile time that
 * the function matches it, and generates the code that registers it:
 *
 * ```
 * class NotesTools(private val notes: Notes) {
 *     @McpTool("create_note")
 *     fun createNote(title: String, body: String?): Created = Created(notes.add(title, body ?: ""))
 * }
 *
 * data class Created(val id: Long) : McpResult {
 *     override val message get() = "Created note $id"
 * }
 * ```
 *
 * Each parameter is an input param of the capability, by name: `startMinute` is `start_minute`
 * (or any name [McpParam] gives). Its type follows the param's: `string` is [String], `integer`
 * [Long], `number` [Double], `boolean` [Boolean], `object` [org.json.JSONObject], `array`
 * [org.json.JSONArray] or, with `mcp:items`, a [List] of the items' type; a param with
 * `required="false"` is nullable, and a required one is not. A parameter of type
 * [io.github.mobilemcp.sdk.ToolCall] is given the call itself (its caller, its deadline). The
 * function may suspend.
 *
 * It returns an [McpResult] whose properties are the capability's outputs, a [String] (the
 * message of a capability without outputs), or an [io.github.mobilemcp.sdk.ToolResult], whose
 * outputs are not checked. A mismatch with the descriptor is a compile error that names the
 * descriptor's line and says how to fix it.
 */
@Target(AnnotationTarget.FUNCTION)
@Retention(AnnotationRetention.BINARY)
@MustBeDocumented
annotation class McpTool(
    /** The capability's id, as the descriptor's `<capability id="...">` writes it. */
    val id: String,
)

/**
 * The `@McpTool` handlers of one class, as mobilemcp's KSP processor records them in the module that
 * compiles the class, on a class it generates in the package `io.github.mobilemcp.generated`. The
 * module that owns the capability descriptor reads these records from its classpath, so that it
 * checks the handlers that library modules hold as it checks its own, and finds every capability
 * its handler wherever it is. Written by the processor, never by hand.
 */
@Target(AnnotationTarget.CLASS)
@Retention(AnnotationRetention.BINARY)
annotation class McpHandlerIndex(
    /** The qualified name of the class that holds the handlers. */
    val type: String,
    /** The capability ids, one for each handler. */
    val ids: Array<String>,
    /** The names of the handler functions, in the order of [ids]. */
    val functions: Array<String>,
)

/**
 * Names the descriptor's param that a handler's parameter, or a result's property, stands for,
 * when it is not the Kotlin name in snake_case:
 *
 * ```
 * @McpTool("send_sms")
 * fun send(@McpParam("to_phone_number") to: String, text: String): Sent
 * ```
 */
@Target(AnnotationTarget.VALUE_PARAMETER, AnnotationTarget.PROPERTY)
@Retention(AnnotationRetention.BINARY)
@MustBeDocumented
annotation class McpParam(
    /** The param's name, as the descriptor's `<param name="...">` writes it. */
    val name: String,
)

/**
 * The successful result of an [McpTool] handler: [message] is what the caller reads, and each
 * other property of the class is one of the capability's declared outputs, never null:
 *
 * ```
 * data class Created(val id: Long) : McpResult {
 *     override val message get() = "Created note $id"
 * }
 * ```
 */
interface McpResult {
    /** The result's message, for the user and the model: what the call did. */
    val message: String
}
