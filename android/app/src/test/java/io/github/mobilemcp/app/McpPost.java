package io.github.mobilemcp.app;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;

/** An MCP client's POST to the phone's server over real HTTP, as the tests of the server make it. */
final class McpPost {
    private McpPost() {}

    /**
     * POSTs body to the server on the loopback (which 0.0.0.0 includes) at port, with token unless
     * it is null, and returns "status body".
     */
    static String post(int port, String token, String body) throws IOException {
        HttpURLConnection http = (HttpURLConnection) new URL("http://127.0.0.1:" + port + "/mcp").openConnection();
        http.setRequestMethod("POST");
        http.setDoOutput(true);
        http.setRequestProperty("Content-Type", "application/json");
        http.setRequestProperty("Accept", "application/json, text/event-stream");
        if (token != null) {
            http.setRequestProperty("Authorization", "Bearer " + token);
        }
        try (OutputStream out = http.getOutputStream()) {
            out.write(body.getBytes(StandardCharsets.UTF_8));
        }
        int status = http.getResponseCode();
        InputStream in = status < 400 ? http.getInputStream() : http.getErrorStream();
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        if (in != null) {
            in.transferTo(read);
            in.close();
        }
        return status + " " + read.toString(StandardCharsets.UTF_8).trim();
    }
}
