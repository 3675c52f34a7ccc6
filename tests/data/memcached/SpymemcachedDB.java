/*
 * A YCSB DB for the interop tests: the calls YCSB's memcached binding (site.ycsb.db.MemcachedClient,
 * 0.17.0) makes, through the libraries it declares (spymemcached 2.11.4 over the text protocol,
 * Jackson 1.9.13), since that binding is not published on Maven Central. Written for ycsbctl from
 * the binding's documented behaviour: key "<table>-<key>"; value = one JSON object of the fields
 * (a String, which spymemcached stores with flags 0); insert = add, update = replace, both with
 * expiry Integer.MAX_VALUE; read = get of the whole object, the fields asked for kept; delete =
 * delete; scan unsupported. Statuses as the binding's: a read of a missing key is OK with no data.
 */
package ycsbctl.interop;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Vector;

import net.spy.memcached.ConnectionFactoryBuilder;
import net.spy.memcached.MemcachedClient;
import net.spy.memcached.internal.OperationFuture;
import org.codehaus.jackson.JsonNode;
import org.codehaus.jackson.map.ObjectMapper;
import org.codehaus.jackson.node.ObjectNode;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

public class SpymemcachedDB extends DB {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int NO_EXPIRY = Integer.MAX_VALUE;
  private MemcachedClient client;

  @Override
  public void init() throws DBException {
    List<InetSocketAddress> servers = new ArrayList<>();
    for (String hostPort : getProperties().getProperty("memcached.hosts").split(",")) {
      String[] parts = hostPort.split(":");
      servers.add(new InetSocketAddress(parts[0], parts.length > 1 ? Integer.parseInt(parts[1]) : 11211));
    }
    try {
      client = new MemcachedClient(new ConnectionFactoryBuilder()
          .setProtocol(ConnectionFactoryBuilder.Protocol.TEXT).setOpTimeout(60000).build(), servers);
    } catch (java.io.IOException e) {
      throw new DBException(e);
    }
  }

  @Override
  public void cleanup() {
    if (client != null) {
      client.shutdown(30, java.util.concurrent.TimeUnit.SECONDS);
    }
  }

  private static String itemKey(String table, String key) {
    return table + "-" + key;
  }

  private static Status outcome(OperationFuture<Boolean> done) {
    return done.getStatus().isSuccess() ? Status.OK : new Status("ERROR", done.getStatus().getMessage());
  }

  private static String toJson(Map<String, ByteIterator> values) throws java.io.IOException {
    ObjectNode record = JSON.createObjectNode();
    for (Map.Entry<String, String> e : StringByteIterator.getStringMap(values).entrySet()) {
      record.put(e.getKey(), e.getValue());
    }
    return JSON.writeValueAsString(record);
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    try {
      Object stored = client.asyncGet(itemKey(table, key)).get();
      if (stored != null) {
        JsonNode record = JSON.readTree((String) stored);
        for (Iterator<Map.Entry<String, JsonNode>> it = record.getFields(); it.hasNext();) {
          Map.Entry<String, JsonNode> field = it.next();
          if ((fields == null || fields.isEmpty() || fields.contains(field.getKey())) && !field.getValue().isNull()) {
            result.put(field.getKey(), new StringByteIterator(field.getValue().asText()));
          }
        }
      }
      return Status.OK;
    } catch (Exception e) {
      System.err.println("read " + key + ": " + e);
      return Status.ERROR;
    }
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
                     Vector<HashMap<String, ByteIterator>> result) {
    return Status.NOT_IMPLEMENTED;
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    try {
      return outcome(client.replace(itemKey(table, key), NO_EXPIRY, toJson(values)));
    } catch (Exception e) {
      return Status.ERROR;
    }
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    try {
      return outcome(client.add(itemKey(table, key), NO_EXPIRY, toJson(values)));
    } catch (Exception e) {
      return Status.ERROR;
    }
  }

  @Override
  public Status delete(String table, String key) {
    try {
      return outcome(client.delete(itemKey(table, key)));
    } catch (Exception e) {
      return Status.ERROR;
    }
  }
}
